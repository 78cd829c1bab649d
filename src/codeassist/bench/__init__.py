"""The benchmark (`make bench`, `python -m codeassist.bench`): speed, memory and scale beside the
langchain baseline. An edge like the CLI and the eval: nothing in the core imports it.

- `run`: the driver (sections, warm figures in this process) and `main`;
- `cold`: measurements that need a fresh process (cold CLI, the app, index builds) and their workers;
- `scale`: the synthetic many-municipality corpus on embedded Chroma and a server;
- `report`: targets, the stdout table and eval/BENCH.md (pure).
"""
