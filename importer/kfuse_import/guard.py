"""Running the code of a model file: what it reads, and how it may end.

The command line runs MODEL.py's code (loading it, model(),
example_inputs(), forward() under torch.export) inside ModelRun.step():
  - every file opened meanwhile is recorded (an audit hook: open(),
    os.open(), imports), with the files of the modules it imported, so that
    saving refuses to replace any of them (program.check_output);
  - a SystemExit from the model's code (sys.exit(0), exit(), argparse) is an
    error naming its line: let through, it would end kfuse-import with the
    model's status, 0 included, having written and said nothing."""
import contextlib
import os
import sys
import sysconfig
import traceback

from .errors import ImportFailure

_OURS = os.path.dirname(os.path.abspath(__file__))
_STDLIB = os.path.abspath(sysconfig.get_paths()["stdlib"])


class ModelExited(ImportFailure):
    """The model file's code raised SystemExit."""


class ModelRun:
    def __init__(self, path):
        self.path = path
        self.opened = set()
        self.modules = set(sys.modules)
        self.recording = False
        sys.addaudithook(self._audit)  # an audit hook cannot be removed: it idles

    def _audit(self, event, args):
        if self.recording and event == "open" and isinstance(args[0], (str, bytes)):
            self.opened.add(os.fsdecode(args[0]))

    @contextlib.contextmanager
    def step(self, what):
        self.recording = True
        try:
            yield
        except SystemExit as e:
            where = _innermost_user_frame(e.__traceback__) or self.path
            raise ModelExited(
                f"{where}: the model's code exited (SystemExit with code {e.code!r}) while "
                f"kfuse-import was {what}; nothing was imported (a model file defines "
                "model() and example_inputs(), or MODELS, and must not exit)") from None
        finally:
            self.recording = False

    def files(self):
        """The model file, then every file opened or module imported in a step."""
        imported = {getattr(sys.modules[m], "__file__", None)
                    for m in set(sys.modules) - self.modules}
        return [self.path] + sorted(self.opened | {f for f in imported if isinstance(f, str)})


def _innermost_user_frame(tb):
    """file:line of the deepest frame that is neither kfuse-import's, nor
    Python's library (argparse's exit), nor torch's."""
    for frame in reversed(traceback.extract_tb(tb)):
        path = os.path.abspath(frame.filename)
        if frame.filename.startswith("<") or path.startswith(_OURS + os.sep):
            continue
        if path.startswith(_STDLIB + os.sep) and "site-packages" not in path:
            continue
        torch = sys.modules.get("torch")
        if torch and path.startswith(os.path.dirname(os.path.abspath(torch.__file__)) + os.sep):
            continue
        return f"{frame.filename}:{frame.lineno}"
    return None
