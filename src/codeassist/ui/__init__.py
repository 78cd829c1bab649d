"""The Streamlit app's pages and the helpers that show answers, provisions and calculator results.

Everything here renders what the core returns (Assistant, Corpus, CALCULATORS); no ordinance rule
lives in this package. Corpus and user text always go through `text.escape_md`, never through HTML.
"""

from pathlib import Path

PAGES_DIR = Path(__file__).parent / "pages"
