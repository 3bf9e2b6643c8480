"""Compares the fusion rule switches (options whose description starts with
"rule:") of the passes and pipelines in `kfuse-opt --help` with each other
and with the rules kfuse-compile's --fusion names in its error message.
Prints one line when all agree; exits 1 naming the first difference."""
import re
import sys

OWNERS = ["kf-form-kernels", "kf-kernel-report", "kf-cpu-pipeline",
          "kf-gpu-pipeline", "kf-gpu-emulation-pipeline", "kf-host-runtime-pipeline"]


def rules_by_owner(help_text):
    rules, owner = {}, None
    for line in help_text.splitlines():
        top = re.match(r"^      --([a-z0-9-]+)\s", line)
        if top:
            owner = top.group(1) if top.group(1) in OWNERS else None
            continue
        option = re.match(r"^        --([a-z0-9-]+)\s+- (rule: .*)$", line)
        if owner and option:
            rules.setdefault(owner, {})[option.group(1)] = option.group(2).strip()
    return rules


def main():
    rules = rules_by_owner(open(sys.argv[1]).read())
    error = open(sys.argv[2]).read()
    listed = re.search(r"a rule \(([^)]*)\)=true\|false", error)
    if not listed:
        sys.exit(f"no rule list in kfuse-compile's --fusion error: {error!r}")
    fusion_names = {name.strip() for name in listed.group(1).split(",")}
    reference = rules.get("kf-form-kernels")
    if not reference:
        sys.exit("kf-form-kernels lists no rule switch in --help")
    for owner in OWNERS:
        if rules.get(owner) != reference:
            mine = rules.get(owner, {})
            diff = sorted(set(mine.items()) ^ set(reference.items()))
            sys.exit(f"{owner} disagrees with kf-form-kernels: {diff}")
    if fusion_names != set(reference):
        sys.exit(f"--fusion disagrees with kf-form-kernels: "
                 f"{sorted(fusion_names ^ set(reference))}")
    print(f"{len(reference)} rule switches agree across "
          f"{', '.join(OWNERS)} and --fusion")


main()
