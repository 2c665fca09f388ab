# SPDX-License-Identifier: GPL-2.0-only
# perf script -s: every tracepoint sample as "system:event<TAB>name=value ...", its fields
# (not the common ones) in format order as perf's libtraceevent reads them; the oracle of
# tests/dump-fields-oracle.t for dump's TSV and JSON fields.
import sys

def trace_unhandled(event_name, context, fields):
    out = []
    for k, v in fields.items():
        if k.startswith("common_") or k == "perf_sample_dict":
            continue
        if isinstance(v, (bytes, bytearray)):
            v = v.split(b"\0")[0].decode("latin-1")
        if isinstance(v, str):
            v = v.replace("\t", " ").replace("\n", " ")
        if isinstance(v, list):
            v = ",".join(str(x) for x in v)
        out.append("%s=%s" % (k, v))
    sys.stdout.write("%s\t%s\n" % (event_name.replace("__", ":", 1), " ".join(out)))
