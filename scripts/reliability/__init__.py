"""The reliability suite: real ``companion run`` processes driven over HTTP, with figures.

Run everything with ``.venv/bin/python scripts/reliability`` (``--quick`` for a short run,
``--only soak,races`` for some). Each scenario module has one ``run_*`` function returning a
:class:`reliability.harness.Result`; ``tests/reliability/`` calls the same functions with
small sizes and asserts on their figures. All traffic goes to 127.0.0.1.
"""
