"""The sandbox's child side: ``python -I -S -B -c HARNESS JOB_FD RESULT_FD RUN_DIR``.

(See sandbox.py.) The job and the result file come as open descriptors: a sealed run cannot see
its run directory on the host; RUN_DIR only names the run (for ps).

It runs as the supervisor of one run: it reads the job (marshal), pre-imports the allowed modules
the code names, forks one worker that sets the limits, drops privileges, installs the audit hook
and only then runs the model's code on each input, and reports on the result file. Standard
library only, and nothing from LadderBench: the interpreter runs isolated (``-I -S``).

It imports no module beyond these six (not even ``typing`` or ``__future__``): a module imported
here stays in ``sys.modules``, where the worker's code could import it past the audit hook.
"""

import builtins
import io
import marshal
import os
import resource
import sys


class Channel:
    """The result file: lines of "KIND NONCE TEXT" (the parent reads only its nonce's lines)."""

    def __init__(self, fd: int, nonce: str) -> None:
        self.fd = fd
        self.nonce = nonce

    def emit(self, kind: str, text: str) -> None:
        os.write(self.fd, f"{kind} {self.nonce} {text}\n".encode("utf-8", "backslashreplace"))


# The audit hook's source: its constants are compiled into it and the builtins it calls are bound
# as defaults when it is made, so patching modules or ``builtins`` cannot loosen it. Its count of
# files opened for writing is reachable by the code (the hook's frame is in the traceback of the
# PermissionError it raises), so it is a tripwire only: the run's tmpfs caps what is written.
HOOK = """
def make(PermissionError=PermissionError, ModuleNotFoundError=ModuleNotFoundError, type=type,
         str=str, bytes=bytes, int=int, len=len, writes=[0]):
    def audit(event, args):
        if event == "import":
            raise ModuleNotFoundError("sandbox: module %s is not available" % args[0])
        if event == "open":
            path = args[0]
            if type(path) is bytes:
                path = path.decode("utf-8", "surrogateescape")
            if type(path) is not str:
                raise PermissionError("sandbox: open() of a non-path is not allowed")
            if not path.startswith("/"):
                path = @WORK@ + "/" + path
            parts = []
            for part in path.split("/"):
                if part == "" or part == ".":
                    continue
                if part == "..":
                    if parts:
                        parts.pop()
                    continue
                parts.append(part)
            path = "/" + "/".join(parts)
            if path != @WORK@ and not path.startswith(@WORK@ + "/"):
                raise PermissionError("sandbox: no access outside the work directory")
            flags, mode = args[2], args[1]
            writing = (type(flags) is int and flags & @WRITE_FLAGS@) or (
                type(mode) is str and (
                    "w" in mode or "a" in mode or "x" in mode or "+" in mode
                )
            )
            if writing:
                if writes[0] >= @MAX_WRITES@:
                    raise PermissionError("sandbox: too many files opened for writing")
                writes[0] += 1
            return
        if event.startswith(@DENIED@):
            raise PermissionError("sandbox: %s is not allowed" % event)
        if event == "object.__setattr__" or event == "object.__delattr__":
            if len(args) > 1 and args[1] in @PROTECTED@:
                raise PermissionError("sandbox: changing %s is not allowed" % args[1])
    return audit
"""


def install_hook(work: str, denied: tuple[str, ...]) -> None:
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
    text = (
        HOOK.replace("@WORK@", repr(work))
        .replace("@WRITE_FLAGS@", str(writing))
        .replace("@MAX_WRITES@", "32")
        .replace("@DENIED@", repr(denied))
        .replace("@PROTECTED@", repr(("__code__", "__defaults__", "__kwdefaults__", "__closure__")))
    )
    space: dict = {}
    exec(compile(text, "<sandbox-hook>", "exec"), space)
    hook = space.pop("make")()
    space.clear()
    sys.addaudithook(hook)


def plain(value: object, depth: int = 0) -> object:
    """A returned value as plain data (lists, dicts, scalars), or TypeError."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if depth > 60:
        raise TypeError("return value nested too deeply")
    if type(value) is list or type(value) is tuple:
        return [plain(item, depth + 1) for item in value]
    if type(value) is dict:
        out = {}
        for key, item in value.items():
            if type(key) not in (str, int, bool) and key is not None:
                raise TypeError("dict key of type " + type(key).__name__)
            out[key] = plain(item, depth + 1)
        return out
    raise TypeError("returned a value of type " + type(value).__name__)


def describe(exc: BaseException) -> str:
    try:
        message = str(exc)
    except BaseException:
        message = ""
    return (type(exc).__name__ + (": " + message if message else ""))[:200]


def load(job: dict) -> tuple[object, str, str]:
    """(entry point, "ok", "") from the first source that compiles, else (None, status, detail)."""
    problems = []
    for source in job["sources"]:
        try:
            code = compile(source, "solution.py", "exec")
        except BaseException as exc:
            problems.append(describe(exc))
            continue
        space = {"__name__": "solution", "__builtins__": builtins}
        sys.stdout = sys.stderr = io.StringIO()
        try:
            exec(code, space)
        except BaseException as exc:
            return (None, "load_error", describe(exc))
        entry = space.get(job["entry"])
        if not callable(entry):
            holder = space.get("Solution")
            if isinstance(holder, type) and callable(getattr(holder, job["entry"], None)):
                entry = getattr(holder(), job["entry"])
        if not callable(entry):
            return (None, "missing_function", "no function named " + job["entry"])
        return (entry, "ok", "")
    return (None, "syntax_error", problems[0] if problems else "no code")


def worker(job: dict, channel: Channel) -> None:
    limits = job["limits"]
    R = resource
    R.setrlimit(R.RLIMIT_CORE, (0, 0))
    R.setrlimit(R.RLIMIT_CPU, (limits["cpu"], limits["cpu"] + 1))
    R.setrlimit(R.RLIMIT_AS, (limits["memory"], limits["memory"]))
    R.setrlimit(R.RLIMIT_FSIZE, (limits["file"], limits["file"]))
    R.setrlimit(R.RLIMIT_NOFILE, (limits["files"], limits["files"]))
    R.setrlimit(R.RLIMIT_NPROC, (limits["procs"], limits["procs"]))
    if job["drop"] is not None:
        uid, gid = job["drop"]
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        if os.getuid() != uid or os.geteuid() != uid or os.getegid() != gid or os.getgroups():
            raise SystemExit("could not drop privileges")
        try:
            os.setuid(0)
        except PermissionError:
            pass
        else:
            raise SystemExit("could regain root")
    work = os.getcwd()
    if job["audit"]:
        install_hook(work, tuple(job["denied"]))
    found, status, detail = load(job)
    if not callable(found):
        channel.emit("RESULT", repr({"load": status, "detail": detail, "outcomes": []}))
        return
    outcomes = []
    for args_text in job["inputs"]:
        args = eval(args_text, {"__builtins__": {}})
        sys.stdout = sys.stderr = io.StringIO()
        try:
            outcomes.append([True, plain(found(*args))])
        except BaseException as exc:
            outcomes.append([False, describe(exc)])
    channel.emit("RESULT", repr({"load": "ok", "detail": "", "outcomes": outcomes}))


def read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            os.close(fd)
            return b"".join(chunks)
        chunks.append(chunk)


def main(job_fd: int, result_fd: int) -> None:
    job = marshal.loads(read_all(job_fd))
    channel = Channel(result_fd, job["nonce"])
    for name in job["preload"]:
        try:  # noqa: SIM105 (contextlib is not imported here: see the module docstring)
            __import__(name)
        except Exception:  # a module that fails to import is simply not there for the code
            pass

    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            worker(job, channel)
        except BaseException as exc:
            try:  # noqa: SIM105
                channel.emit("CRASH", describe(exc))
            except BaseException:
                pass
            code = 70
        os._exit(code)

    def overdue(signum: int, frame: object) -> None:
        os.kill(pid, 9)  # the parent's timeout did not come (it died?): end the run ourselves

    import _signal  # type: ignore[import-not-found]  # C module, no stub; signal would import enum

    _signal.signal(_signal.SIGALRM, overdue)
    _signal.alarm(job["limits"]["wall"])
    _, status = os.waitpid(pid, 0)
    channel.emit("STATUS", str(status))


if __name__ == "__main__":  # run as ``python -I -S -B -c HARNESS JOB_FD RESULT_FD RUN_DIR``
    main(int(sys.argv[1]), int(sys.argv[2]))
