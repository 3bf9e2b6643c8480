"""Import-time evaluation of what depends on no input: the constant
subgraphs of a program, for the ops kf refuses.

Real models compute tensors that no input reaches: transformers' mask
builders run arange/cumsum/comparisons over positions made from the
sequence length, BERT gathers its token types from a buffer of zeros. kf
lacks some of those ops (integer gathers) or refuses them for a reason
that holds for inputs, not for constants; the others (cumsum) are
kernels that would recompute the same values on every call. Such a node, when every
tensor it reads is a constant, is evaluated here by PyTorch itself and
enters the program as a kf.constant: what Inductor's constant folding
does for the same graphs.

What counts as a constant: a lifted tensor constant, a non-persistent
buffer (model state that is not a weight: position ids, token types), and
any op of those and of no other tensor. Parameters and persistent buffers
are weights: they stay arguments (with weights="args") so that one library
runs new weights, and are never folded. A node that reads a dynamic size
reads an input, so it is never folded either. Random ops are not folded.

Two uses. An op kf refuses (or lacks) is folded whatever its size. And a
constant subgraph kf could lower is folded when its values are small (at
most SMALL elements each): transformers' causal and sliding-window masks,
Llama's rotary cos/sin tables (positions times a buffer of frequencies)
would otherwise be kernels that recompute the same constants on every
call. Such a node is not lowered at all; its value becomes a kf.constant
only where a lowered op reads it (importer.Context.value), so a chain of
folded ops leaves one constant, not one an op. Larger constant subgraphs
are lowered (a 2048 x 2048 mask is cheaper to compute than to store).
"""
import torch
import torch.utils._pytree as pytree


SMALL = 1 << 16  # elements: 256 KiB of f32 in the program text at most


class Folder:
    def __init__(self, ep, state):
        sig = ep.graph_signature
        non_persistent = set(getattr(sig, "non_persistent_buffers", ()) or ())
        placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
        self._values = {}
        for node, spec in zip(placeholders, sig.input_specs):
            kind = spec.kind.name
            if kind == "CONSTANT_TENSOR" or (kind == "BUFFER" and spec.target in non_persistent):
                self._values[node] = state[spec.target]
        self._foldable = {n: True for n in self._values}

    def foldable(self, node):
        """Whether node's value depends on constants only."""
        known = self._foldable.get(node)
        if known is not None:
            return known
        ok = False
        if node.op == "call_function":
            target = node.target
            deterministic = not (isinstance(target, torch._ops.OpOverload)
                                 and torch.Tag.nondeterministic_seeded in target.tags)
            inputs = [a for a in pytree.tree_leaves((node.args, node.kwargs))
                      if isinstance(a, torch.fx.Node)]
            # Every input is met before node (the graph is in order), so the
            # recursion is one level deep whenever the walk is in order.
            ok = deterministic and all(self.foldable(a) for a in inputs)
        self._foldable[node] = ok
        return ok

    def small(self, node):
        """Whether node is foldable and its value (each, for several
        results) has at most SMALL elements: folded whether kf lowers it or
        not."""
        vals = node.meta.get("val")
        vals = vals if isinstance(vals, (tuple, list)) else (vals,)
        return (self.foldable(node) and bool(vals) and
                all(isinstance(v, torch.Tensor) and v.numel() <= SMALL for v in vals))

    def value(self, node):
        """node's value, computed by PyTorch (node must be foldable)."""
        if node not in self._values:
            load = lambda a: self.value(a) if isinstance(a, torch.fx.Node) else a
            args, kwargs = pytree.tree_map(load, (node.args, node.kwargs))
            self._values[node] = node.target(*args, **kwargs)
        return self._values[node]
