"""gpu-check.md: the table, the sweep's summary."""


def fmt(x, unit=""):
    if x is None:
        return "-"
    if isinstance(x, float):
        return (f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}") + unit
    return str(x) + unit


def check_text(r):
    """The row's check, graph replay's included: (text, ok or None)."""
    check = r.get("check", {})
    if (check.get("ok") and r.get("check_graph", {}).get("checked")
            and not r["check_graph"]["ok"]):
        check = dict(r["check_graph"], why="graph replay")
    if not check:
        return "-", None
    if not check.get("checked"):
        return "unchecked: " + check.get("why", ""), None
    return ("ok" if check["ok"] else "FAILED" + (
        " in graph replay" if check.get("why") else "")) + f" ({fmt(check['rel_error'])})", \
        check["ok"]


def sweep_summary(result):
    """Per matmul of the sweep: kfuse's own tiles (the standard row) and
    the best SPEC, each against cuBLAS (torch eager) timed in its row."""
    sweep = [r for r in result["rows"] if r.get("tiles")]
    if not sweep:
        return []
    lines = ["", "matmul tile sweep: kfuse graph on against cuBLAS (torch.matmul, TF32 off) in "
             "the same rounds; speed = cuBLAS us / kfuse us (the best of the SPECs whose "
             "result is right)", "",
             "| matmul | kfuse's own tiles: us, speed | best tiles | best us | best speed | "
             "best TFLOP/s | SPECs ok / failed / skipped |", "|" + "---|" * 7]
    standard = {r["row"]: r for r in result["rows"] if not r.get("tiles")}
    by_base = {}
    for r in sweep:
        by_base.setdefault(r["base"], []).append(r)
    for base, rs in by_base.items():
        good, failed, skipped = [], [], []
        for r in rs:
            ok = check_text(r)[1]
            if r.get("skipped"):
                skipped.append(r)
            elif "error" in r or ok is False or not r.get("kfuse_graph_on_us"):
                failed.append(r)
            else:
                good.append(r)
        own = standard.get(base, {})
        own_text = (f"{fmt(own['kfuse_graph_on_us'])} us, "
                    f"{fmt(own.get('kfuse_graph_on_vs_torch_eager'), 'x')}"
                    if own.get("kfuse_graph_on_us") else "-")
        counts = f"{len(good)} / {len(failed)} / {len(skipped)}"
        if not good:
            lines.append(f"| {base} | {own_text} | none right | - | - | - | {counts} |")
            continue
        best = min(good, key=lambda r: r["kfuse_graph_on_us"])
        variants = set(v for r in rs for v in r.get("variants", []))
        if variants and "tensor_core" not in variants:  # the same kernel each time
            counts += f" (a {'/'.join(sorted(map(str, variants)))} kernel: no tiles)"
        lines.append(f"| {base} | {own_text} | {best['tiles']} | "
                     f"{fmt(best['kfuse_graph_on_us'])} | "
                     f"{fmt(best.get('kfuse_graph_on_vs_torch_eager'), 'x')} | "
                     f"{fmt(best.get('kfuse_graph_on_tflops'))} | {counts} |")
    for r in sweep:
        if ("error" in r and not r.get("skipped")) or check_text(r)[1] is False:
            lines.append(f"sweep row {r['row']}: " + (r.get("error") or check_text(r)[0]))
    return lines


def markdown(result):
    dry = result["dry_run"]
    lines = []
    if dry:
        lines.append("fake driver, no timing claims: the numbers below measure the fake "
                     "driver's bookkeeping, not a GPU")
    lines.append(f"device: {result['device']}; copy bandwidth (measured): "
                 f"{fmt(result['copy_gbps'])} GB/s; torch: {result['torch']}")
    lines += ["", "| row | kfuse graph on us | kfuse graph off us | torch eager us | "
              "torch.compile us | kfuse rate | of peak | eager / kfuse | compile / kfuse | "
              "graph replays | check |", "|" + "---|" * 11]
    for r in result["rows"]:
        if "error" in r:
            lines.append(f"| {r['row']} | error: {r['error'][:160]} |" + " |" * 9)
            continue
        unit, frac = ("_tflops", "_peak_fraction") if r["flops"] else ("_gbps", "_copy_fraction")
        rate = r.get("kfuse_graph_on" + unit)
        rate_text = fmt(rate, " TFLOP/s" if r["flops"] else " GB/s")
        peak = r.get("kfuse_graph_on" + frac)
        lines.append(
            f"| {r['row']} | {fmt(r.get('kfuse_graph_on_us'))} | {fmt(r.get('kfuse_graph_off_us'))} | "
            f"{fmt(r.get('torch_eager_us'))} | {fmt(r.get('torch_compile_us'))} | {rate_text} | "
            f"{fmt(peak * 100 if peak is not None else None, '%')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_eager'), 'x')} | "
            f"{fmt(r.get('kfuse_graph_on_vs_torch_compile'), 'x')} | "
            f"{r.get('graph', {}).get('replays', '-')} | {check_text(r)[0]} |")
    o = result.get("launch_overhead", {})
    if "graph_on_us_per_launch" in o:
        lines += ["", f"host time a call of one launch (add_relu of 1000 floats"
                  f"{', fake driver: the runtime alone, host-side only' if dry else ''}): "
                  f"graphs off {fmt(o['graph_off_us_per_launch'])} us, "
                  f"graphs on {fmt(o['graph_on_us_per_launch'])} us"]
    elif "error" in o:
        lines += ["", "launch overhead: error: " + o["error"][:200]]
    lines += sweep_summary(result)
    if result.get("notes"):
        lines.append("")
    for n in result.get("notes", []):
        lines.append(n)
    return "\n".join(lines) + "\n"
