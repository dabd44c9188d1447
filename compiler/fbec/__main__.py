"""`python3 -m fbec` runs the compiler from the source tree."""
import sys

from fbec.cli import main

sys.exit(main())
