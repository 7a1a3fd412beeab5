"""``python scripts/reliability [--quick] [--only NAMES]``: run the suite, print a summary."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reliability.cli import main  # noqa: E402

sys.exit(main())
