"""`python -m codeassist.cli`: the same as the `codeassist` console script."""

import sys

from codeassist.cli import main

sys.exit(main())
