"""`python -m codeassist.bench [--quick]`: see `codeassist.bench.run`."""

import sys

from codeassist.bench.run import main

sys.exit(main())
