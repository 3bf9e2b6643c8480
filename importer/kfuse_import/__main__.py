import sys

from .cli import main

sys.exit(main(sys.argv[1:], prog="python -m kfuse_import"))
