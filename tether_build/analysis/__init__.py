"""The balance lab: many seeded games, summarised for the designer (`tether balance`).

runner: the games, in batches over a process pool or a Dask cluster (same result whatever
runs them); records: one compact record per game read from its event log; stats: the
report's figures; plots and html: the report page.
"""
