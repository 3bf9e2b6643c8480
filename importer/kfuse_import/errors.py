"""The importer's exceptions."""


class ImportFailure(Exception):
    """A program kfuse-import cannot write as kf (base class)."""


class UnsupportedOp(ImportFailure):
    """An aten op (or a use of one) that kf cannot express.

    `op` is the aten op's name (e.g. 'aten.sort.default'), `where` the user's
    source line 'file:line' of the op itself when torch.export recorded it,
    `source` that line's text, `callers` the frames that led there
    [(file:line, function, text)], innermost first (empty when the op is in
    forward() itself)."""

    def __init__(self, message, op=None, where=None, source=None, callers=()):
        self.reason = message
        self.op = op
        self.where = where
        self.source = source
        self.callers = list(callers)
        self.others = []  # the other ops refused with it (all a model lacks)
        text = message
        if op:
            text = f"{op}: {message}"
        if where:
            text = f"{where}: {text}"
            if source:
                text += f"\n    {source}"
            for at, function, line in self.callers:
                text += f"\n  called from {at} in {function}" + (f": {line}" if line else "")
        super().__init__(text)


class OutputRefused(ImportFailure):
    """An output path that would overwrite the source or a file not ours."""
