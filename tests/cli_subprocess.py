"""The command line run as a user runs it, in a child process: `python -m glyphscope …` with its
exit code, stdout and stderr, and the small PDFs the command-line tests share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


HELLO = b"BT /F1 10 Tf 72 700 Td (Hello world) Tj ET"


SLUG = HELLO + b" BT /F1 6 Tf 72 10 Td (slug line) Tj ET"


BOLD = b"BT /F1 10 Tf 72 600 Td (Bold) Tj ET BT /F1 10 Tf 72.3 600 Td (Bold) Tj ET"


HOSTILE = rb"BT /F1 10 Tf 72 700 Td (<script>alert\(1\)</script> & \"quoted\") Tj ET"


def run(*args: str, check_clean_stderr: bool = True) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-m", "glyphscope", *args], cwd=REPO, env=env, capture_output=True, timeout=120
    )
    if check_clean_stderr:
        assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return proc


def one_line_error(proc: subprocess.CompletedProcess[bytes], code: int) -> str:
    assert proc.returncode == code, (proc.returncode, proc.stderr.decode())
    err = proc.stderr.decode().strip()
    assert err.startswith("glyphscope:") and "\n" not in err, err
    assert "Traceback" not in err
    assert proc.stdout == b""
    return err
