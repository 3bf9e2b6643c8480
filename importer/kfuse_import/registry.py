"""The table of aten op handlers, filled by the ops_* modules.

A handler takes (ctx, node) and returns the node's kf Value, or a tuple of
Values for an op with several results (read back through getitem)."""

HANDLERS = {}


def handles(*names):
    """Registers a handler for aten ops by their name (every overload)."""
    def register(fn):
        for name in names:
            assert name not in HANDLERS, name
            HANDLERS[name] = fn
        return fn
    return register
