"""The eval: retrieval against baselines, and end-to-end answer checks, on two splits in one process.

    codeassist eval [--split test|dev|all] [--out DIR]   # DIR/REPORT.md, DIR/results-<split>.json (default eval/)
    run_eval("all")                                       # the same, returning {split: metrics}

Splits (gold.py): ``test`` (eval/test.jsonl, written blind, never tuned on; the report shows it first
and only as counts by category) and ``dev`` (eval/gold.jsonl, the set the project was tuned on; the
report lists its misses). The index, the langchain baseline and the Assistant are built once.

Modules, one job each: ``gold`` (splits, loading, what a line says), ``metrics`` (pure: ranks, hit@k,
MRR, percentiles, the key-fact and lead-fact matchers), ``judge`` (is a returned provision or chunk
right), ``baselines`` (the langchain pipeline), ``retrieval`` (systems x questions), ``answers`` (every
line through ``Assistant.ask``), ``targets`` (the issues' thresholds), ``report`` (stdout table,
REPORT.md), ``runner`` (the run and the command).

Retrieval (issue 3). On every gold question that is answerable, has gold ids and is in category
retrieval / definition / lookup / calculator / compare, four systems answer the same question:

- ``hybrid``: our Retriever (dense + BM25 fused, query understanding), k=5;
- ``langchain``: what a typical langchain user builds: the raw corpus text files split with
  RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200), embedded with the same model
  (our embedder, wrapped as langchain ``Embeddings``), in an in-memory langchain_chroma ``Chroma``,
  ``similarity_search(k=4)``. No metadata filter: the tutorial pipeline has none, and its chunks carry
  only ``source``. A supplementary row, ``langchain_filtered``, adds ``filter={"source": <file>}``
  whenever the caller picked a municipality, i.e. what a user with a municipality picker would add;
- ``bm25`` and ``dense``: our Retriever with mode="bm25" / mode="dense" (same chunks, same
  municipality filter, no fusion, no pinned citations or definitions).

The caller's municipality (the gold line's ``municipality``) is passed to hybrid, bm25 and dense.

What counts as a hit:
- provision systems: the hit's id is a gold id, or the hit is an ancestor of a gold provision whose
  returned text contains the gold provision's own text (a passage returned whole); a descendant of a
  gold provision does not count (the gold lists every id that answers);
- langchain chunks: the chunk comes from the gold provision's source file, its span in that file
  overlaps the provision's span (``add_start_index``), and its text contains the provision's verbatim
  text from the file (whitespace-normalised; the first 200 characters for longer provisions). The
  municipality of a chunk is that of its source file (the Tuckahoe file holds Chapters 7 and 7B; both
  are Tuckahoe's).

Metrics per system: hit@1, hit@5 (Recall@k in results.json: the first right result at rank <= k;
for the k=4 langchain baseline: within its 4 results), MRR
over the returned list, the same per user type and per expected municipality, the wrong-municipality
rate (share of questions whose municipality is known, from the caller or else ``expected_municipality``,
whose returned top 5 holds a hit from another municipality), and warm query latency p50/p95 in ms
(every system is warmed first; systems run interleaved per question so load affects all alike).

Answers (issue 5), over every gold line through ``Assistant.ask`` with the real retriever: the right
provision among the citations (a gold id, or an ancestor or descendant of one) for answerable
questions; key facts in the answer text (case-insensitive, whitespace-normalised, numerals and number
words interchangeable); abstention (``abstained``) on out-of-corpus and out-of-scope questions;
quotes verbatim and no unsupported numbers (``draft.check_answer``, on the answer's blocks); intent by gold category; the
expected calculator for calculator questions; the lead fact: any of the line's ``lead_facts`` in what
the user reads first (the Answer's ``lead`` when it has one, else the answer's first line; "yes"/"no"
only as whole words). ``Assistant.ask`` replaces an answer that fails ``check_answer`` with an
abstention, so the verbatim and number checks pass by construction; the eval therefore also counts
those safety-net replacements and re-runs the draft to say what was wrong.
"""
