"""The examples in the package's docstrings (what pydoc and help() show) run as written."""
import doctest

import rfk._convert
import rfk._estimators


def test_docstring_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    for module in (rfk._estimators, rfk._convert):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0, (module.__name__, result)
