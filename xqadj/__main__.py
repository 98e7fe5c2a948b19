"""``python -m xqadj``: the same as the ``xqadj`` command."""

import sys

from xqadj.cli import main

sys.exit(main())
