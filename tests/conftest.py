import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import pytest  # noqa: E402

from codeassist.corpus import load_corpus  # noqa: E402


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()
