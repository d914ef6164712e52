"""Where the JIT's time went, window by window: the jdk.Compilation events of a JFR recording (as JSON from
`jfr print --json --events jdk.Compilation`), summed per tier before the first window and in each
10-second window of `.ci/launcher-bench CURVE=N JFR=1`, then the C2 time of the first two windows by class.
  python3 .ci/compilation-windows.py compilation.json WINDOW_START_EPOCH_SECONDS...
"""
import collections
import datetime
import json
import sys


def seconds(duration):  # ISO-8601 like PT0.0123S
    return float(duration[2:-1] or 0) if duration.endswith("S") else 0.0


events = json.load(open(sys.argv[1]))["recording"]["events"]
starts = [float(s) for s in sys.argv[2:]]
per_window = collections.defaultdict(lambda: collections.Counter())
counts = collections.defaultdict(lambda: collections.Counter())
c2_early = collections.Counter()
for event in events:
    values = event["values"]
    at = datetime.datetime.fromisoformat(values["startTime"].replace("Z", "+00:00")).timestamp()
    window = sum(1 for s in starts if at >= s)  # 0: before the first request
    level = values["compileLevel"]
    per_window[window][level] += seconds(values["duration"])
    counts[window][level] += 1
    if level == 4 and 1 <= window <= 2:
        c2_early[values["method"]["type"]["name"].replace("/", ".")] += seconds(values["duration"])
print("JIT compilations from JFR (seconds of compile-thread time by tier: tier 1-3 C1, tier 4 C2; count):")
for window in sorted(per_window):
    label = "start" if window == 0 else f"window {window}"
    tiers = ", ".join(f"tier {lvl} {per_window[window][lvl]:.1f} s ({counts[window][lvl]})"
                      for lvl in sorted(per_window[window]))
    print(f"  {label}: {tiers}")
print("C2 time in windows 1-2 by class, the 12 largest of "
      f"{len(c2_early)} classes, {sum(c2_early.values()):.1f} s in all:")
for name, spent in c2_early.most_common(12):
    print(f"  {spent:5.2f} s {name}")
