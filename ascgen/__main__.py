import sys

from ascgen.cli import main

sys.exit(main())
