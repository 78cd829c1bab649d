"""One Settings object for the whole package (environment prefix CODEASSIST_)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# The checkout root when running from source; an installed package falls back to the working directory.
_ROOT = Path(__file__).resolve().parents[2]

# Fail fast instead of retrying a model hub for a minute if anything ever asks for a hub name.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CODEASSIST_", extra="ignore")

    corpus_dir: Path = Field(default=_ROOT / "corpus", description="Folder of municipality folders.")
    data_dir: Path = Field(default=_ROOT / "data", description="Where the embedded index lives.")
    chroma_url: str | None = Field(default=None, description="http://host:port of a Chroma server; None = embedded.")
    collection_prefix: str = Field(default="codeassist", description="Prefix of Chroma collection names.")
    chroma_timeout_s: float = Field(default=10.0, description="Bound on any one request to a Chroma server.")
    index_lock_timeout_s: float = Field(default=900.0, description="How long to wait for another process's index build.")
    embedding_batch_size: int = 64
    chunk_max_words: int = Field(default=180, description="Chunks stay under the model's 256-token window.")
    max_question_chars: int = Field(default=2000, description="Longer questions are refused politely.")
    default_k: int = 5


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
