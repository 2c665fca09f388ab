#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Validates LAVA job definitions with LAVA's own schema (Debian's lava-common): one line per
# file, "ok FILE" or "invalid FILE: reason"; exit 1 if any is invalid. Used by tests/lava-jobs.t.
import sys

import yaml
from lava_common.schemas import validate

bad = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            validate(yaml.safe_load(f), strict=True)
        print("ok %s" % path)
    except Exception as e:  # the schema's message, whatever its type
        print("invalid %s: %s" % (path, str(e).replace("\n", " ")))
        bad = 1
sys.exit(bad)
