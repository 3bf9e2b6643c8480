"""The importer's exceptions."""


class ImportFailure(Exception):
    """A program kfuse-import cannot write as kf (base class)."""


class UnsupportedOp(ImportFailure):
    """An aten op (or a use of one) that kf cannot express.

    `op` is the aten op's name (e.g. 'aten.sort.default'), `where` the user's
    source line 'file:line' when torch.export recorded it."""

    def __init__(self, message, op=None, where=None, source=None):
        self.reason = message
        self.op = op
        self.where = where
        self.source = source
        text = message
        if op:
            text = f"{op}: {message}"
        if where:
            text = f"{where}: {text}"
            if source:
                text += f"\n    {source}"
        super().__init__(text)


class OutputRefused(ImportFailure):
    """An output path that would overwrite the source or a file not ours."""
