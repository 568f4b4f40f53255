"""Settings for the whole test suite.

The result store is off unless a test gives one (``--store PATH``, ``store=...``): a store
shared by the suite would answer later tests from earlier ones, and a test of interrupts,
progress or kernel loading must play its hands.  Set in the environment, so that the
commands tests start as subprocesses see it too.
"""

import os

os.environ["CARD_ANALYZER_STORE"] = "off"
