#!/bin/sh
# Runs its arguments as a child, not with exec: the shell stays the proxy's direct child and the
# engine is its grandchild, as with the wrapper scripts users write around engines.
"$@"
status=$?
exit "$status"
