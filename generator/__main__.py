import sys

from generator import timing

with timing.stage("import"):
    from generator.cli import main

sys.exit(main(whole_process=True))
