#!/bin/sh
# A wrapper script as users write them: the engine runs as this shell's child (no `exec`), so
# killing the shell alone leaves the engine running and holding the shell's pipes.
# Usage: match_wrapper.sh PYTHON PIDFILE [fake_engine.py options...]
# Both the shell's pid and the engine's are appended to PIDFILE.
python=$1
pidfile=$2
shift 2
echo $$ >> "$pidfile"
"$python" "$(dirname "$0")/fake_engine.py" --pidfile "$pidfile" "$@"
echo "match_wrapper: engine exited with status $?" >&2
