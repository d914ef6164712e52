#!/usr/bin/env python3
"""The report of .ci/profile: a JFR recording of the steady-state code flow turned into a per-step CPU budget
(markdown, on stdout) and a flame graph (a self-contained SVG). Standard library only.

Java samples: jdk.ExecutionSample (threads running Java code). Native samples (jdk.NativeMethodSample) count only
when they are in the native RS256 signer (ACCP, crypto/NativeRsaSignatures): the others are threads waiting in a
socket or a park, not working. Each sample goes to the step of the innermost frame that names one (STEPS, in the
order tried); the server's CPU outside the request threads (JIT compilers, GC) comes from /proc/PID/task.
"""
import argparse
import collections
import html
import re
import subprocess
import sys

# (step, pattern of a frame "package.Class.method"); a sample's step is that of its innermost matching frame
STEPS = [
    ("id_token signing", re.compile(r"com\.amazon\.corretto\.crypto|sun\.security\.rsa\.|java\.security\.Signature\."
                                    r"|com\.nimbusds\.jose\.crypto\.RSASSASigner|NativeRsaSignatures|NimbusJwtEncoder")),
    ("JSON", re.compile(r"tools\.jackson|com\.fasterxml\.jackson|com\.nimbusds\.jose\.util\.JSONObjectUtils"
                        r"|com\.nimbusds\.jose\.shaded\.gson|HttpMessageConverter\.write")),
    ("session", re.compile(r"org\.springframework\.session\.|identity\.session\.")),
    ("consent check", re.compile(r"identity\.consent\.|AuthorizationConsent")),
    ("code (issue and store)", re.compile(r"identity\.oauth\.store\.DatabaseAuthorizationService\.save"
                                          r"|identity\.oauth\.store\.CodeStatements\.insert"
                                          r"|OAuth2AuthorizationCodeGenerator")),
    ("exchange (client, code, token)", re.compile(r"identity\.oauth\.token\.|identity\.apitoken\.|OAuth2TokenEndpoint"
                                                  r"|OAuth2ClientAuthentication|ClientSecretAuthenticationProvider"
                                                  r"|OAuth2AuthorizationCodeAuthentication|OAuth2AccessTokenResponse"
                                                  r"|JwtGenerator|DelegatingOAuth2TokenGenerator|identity\.oauth\.store\.")),
    # the authorization endpoint's own work (its filter is in every later request's stack, so not the filter itself)
    ("authorize (request checks, redirect)", re.compile(r"OAuth2AuthorizationCodeRequestAuthentication"
                                                        r"|OAuth2AuthorizationEndpointFilter\.(sendAuthorizationResponse"
                                                        r"|sendErrorResponse)|DefaultRedirectStrategy"
                                                        r"|identity\.oauth\.authorize\.")),
    ("security filters, login state", re.compile(r"org\.springframework\.security\.")),
    ("HTTP, Tomcat, other filters", re.compile(r"org\.apache\.(coyote|catalina|tomcat)|org\.springframework\.web\."
                                               r"|identity\.(web|ops|abuse)\.")),
]
DATABASE = re.compile(r"org\.h2\.|org\.postgresql\.|com\.zaxxer\.hikari|org\.springframework\.jdbc\.|org\.hibernate\.")
FRAME = re.compile(r"^\s+([\w$.<>/]+)\(")


def samples(jfr, recording, depth):
    """(stack innermost first, weight) of each working sample."""
    out = subprocess.run([jfr, "print", "--events", "jdk.ExecutionSample,jdk.NativeMethodSample", "--stack-depth",
                          str(depth), recording], check=True, capture_output=True, text=True).stdout
    for block in out.split("\njdk.")[1:]:
        native = block.startswith("NativeMethodSample")
        frames = [m.group(1) for m in (FRAME.match(line) for line in block.splitlines()) if m]
        if not frames:
            continue
        if native and not any("com.amazon.corretto.crypto" in f for f in frames[:4]):
            continue
        # the profile settings sample Java every 10 ms and native every 20 ms
        yield frames, 2 if native else 1


def step_of(frames):
    for frame in frames:
        for name, pattern in STEPS:
            if pattern.search(frame):
                return name
    return "other (JVM, libraries)"


def thread_cpu(path):
    """CPU ticks by thread kind, from a snapshot of 'comm<TAB>utime+stime' lines."""
    kinds = collections.Counter()
    for line in open(path):
        comm, ticks = line.rstrip("\n").rsplit("\t", 1)
        if "Compiler" in comm:
            kind = "JIT compilers"
        elif "GC" in comm or "ParGC" in comm:
            kind = "garbage collector"
        elif comm.startswith("ForkJoinPool") or comm.startswith("http-nio") or comm.startswith("tomcat"):
            kind = "request threads"
        else:
            kind = "other JVM threads"
        kinds[kind] += int(ticks)
    return kinds


def flame_svg(stacks, total, path, width=1600, row=16, min_share=0.004):
    tree = {}
    for frames, weight in stacks:
        node = tree
        for frame in reversed(frames):
            entry = node.setdefault(frame, [0, {}])
            entry[0] += weight
            node = entry[1]
    rects = []

    def walk(node, x, level):
        for name, (count, children) in sorted(node.items()):
            if count / total >= min_share:
                rects.append((x, level, count, name))
                walk(children, x, level + 1)
            x += count
    walk(tree, 0, 0)
    depth = max((r[1] for r in rects), default=0) + 1
    height = depth * row + 40
    scale = width / total
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" '
             f'font-size="11"><rect width="100%" height="100%" fill="#fff"/>'
             f'<text x="4" y="14">sso-code, steady state: {total} samples (hover a frame: name, samples, share)</text>']
    for x, level, count, name in rects:
        y = height - (level + 1) * row - 4
        w = count * scale
        hue = 210 if ".identity." in name else 120 if "springframework" in name else 30 if name.startswith(
            ("java.", "jdk.", "sun.")) else 280 if "h2" in name or "postgresql" in name else 0
        label = html.escape(name.rsplit(".", 2)[-2] + "." + name.rsplit(".", 1)[-1] if "." in name else name)
        text = f'<text x="{x * scale + 2:.1f}" y="{y + 12}">{label[:int(w / 7)]}</text>' if w > 30 else ""
        parts.append(f'<g><title>{html.escape(name)}: {count} samples, {100 * count / total:.2f}%</title>'
                     f'<rect x="{x * scale:.1f}" y="{y}" width="{max(w - 0.5, 0.5):.1f}" height="{row - 1}" '
                     f'fill="hsl({hue},60%,{70 if level % 2 else 62}%)"/>{text}</g>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--jfr", required=True)
    a.add_argument("--recording", required=True)
    a.add_argument("--threads-before", required=True)
    a.add_argument("--threads-after", required=True)
    a.add_argument("--flows", type=int, required=True)
    a.add_argument("--seconds", type=float, required=True)
    a.add_argument("--hz", type=int, default=100)
    a.add_argument("--svg", required=True)
    a.add_argument("--depth", type=int, default=96)
    args = a.parse_args()

    stacks = list(samples(args.jfr, args.recording, args.depth))
    total = sum(w for _, w in stacks)
    if not total or args.flows <= 0:
        sys.exit("no samples or no flows in the recording")
    by_step = collections.Counter()
    in_db = collections.Counter()
    for frames, weight in stacks:
        step = step_of(frames)
        by_step[step] += weight
        if any(DATABASE.search(f) for f in frames):
            in_db[step] += weight
    before, after = thread_cpu(args.threads_before), thread_cpu(args.threads_after)
    cpu = {k: (after[k] - before[k]) / args.hz for k in after}
    all_cpu = sum(cpu.values())
    per_flow = lambda seconds: 1000 * seconds / args.flows
    request_ms = per_flow(cpu.get("request threads", 0))

    print(f"{args.flows} flows in {args.seconds:.0f} s ({args.flows / args.seconds:.0f} flows/s); server CPU "
          f"{all_cpu:.1f} s, {per_flow(all_cpu):.2f} CPU-ms a flow; {total} weighted samples\n")
    print("| step | share of the request threads' samples | CPU-ms a flow | of which in the database (JDBC, H2) |")
    print("|---|---|---|---|")
    for name in [s for s, _ in STEPS] + ["other (JVM, libraries)"]:
        share = by_step[name] / total
        print(f"| {name} | {100 * share:.1f}% | {share * request_ms:.2f} | {in_db[name] / total * request_ms:.2f} |")
    print(f"| **request threads, all steps** | 100% | **{request_ms:.2f}** | {sum(in_db.values()) / total * request_ms:.2f} |")
    for kind in ("garbage collector", "JIT compilers", "other JVM threads"):
        print(f"| {kind} (outside the requests) | | {per_flow(cpu.get(kind, 0)):.2f} | |")
    print(f"| **server, all threads** | | **{per_flow(all_cpu):.2f}** | |")

    print("\nHottest frames (self, the innermost frame of each sample):\n")
    top = collections.Counter()
    for frames, weight in stacks:
        top[frames[0]] += weight
    for frame, count in top.most_common(15):
        print(f"- {100 * count / total:.1f}% `{frame}`")
    flame_svg(stacks, total, args.svg)


if __name__ == "__main__":
    main()
