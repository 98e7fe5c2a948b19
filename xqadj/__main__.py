"""``python -m xqadj``: the same as the ``xqadj`` command.

Layer: command line.
"""

import sys

from xqadj.cli import main

sys.exit(main())
