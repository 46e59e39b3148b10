"""`python3 -m tether_build.engine.native`: build the native engine (scripts/setup.sh)."""

import sys

from . import main

sys.exit(main(sys.argv[1:]))
