#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Renders a LAVA device dictionary (a jinja2 file extending a lava-server device-type
# template) as lava-server does when it schedules a job, to YAML on stdout: the dictionary's
# folder and the device-types folder on the template path, no autoescape, trim_blocks, and
# the job's context: entries as template variables. Usage:
#   lava-device.py [--job JOB.yaml] DICTIONARY.jinja2 DEVICE_TYPES_DIR
# Used by tests/lava-jobs.t with lava-server's templates (scripts/lava-templates.sh).
import os
import sys

import yaml
from jinja2 import FileSystemLoader
from jinja2.sandbox import SandboxedEnvironment

args = sys.argv[1:]
context = {}
if len(args) == 4 and args[0] == "--job":
    with open(args[1]) as f:
        context = yaml.safe_load(f).get("context", {})
    args = args[2:]
if len(args) != 2:
    sys.exit("usage: lava-device.py [--job JOB.yaml] DICTIONARY.jinja2 DEVICE_TYPES_DIR")
path, types = args
env = SandboxedEnvironment(
    loader=FileSystemLoader([os.path.dirname(os.path.abspath(path)), types]),
    autoescape=False,
    trim_blocks=True,
)
try:
    text = env.get_template(os.path.basename(path)).render(**context)
    yaml.safe_load(text)  # a device dictionary must at least be YAML
except Exception as e:  # jinja2's or yaml's message, whatever its type
    sys.exit("lava-device: %s: %s" % (path, str(e).replace("\n", " ")))
sys.stdout.write(text)
