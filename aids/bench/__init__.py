"""The benchmarks: each prints its figures next to a baseline measured in the same run (these
machines are shared and noisy: compare ratios between runs; the absolute figure is for the
target).

- ``targets`` — ``aids bench`` (or ``python -m aids.bench``): the issues' performance targets
  (replay, record, sheets and packs, the Rally's reach, the chances, and from the
  repository a slip photo read);
- ``crowd`` — ``python -m aids.bench.crowd``: many viewers on one table (docs/crowd.md);
  ``crowd_report``: what a run found, its figures and the table it prints;
- ``pg`` — ``python -m aids.bench.pg``: the PostgreSQL store and several trackers
  (docs/scaling.md); ``pg_record`` and ``pg_writers``: its two measurements, the cost of
  recording one action and many writers at once;
- ``chances`` — ``python -m aids.bench.chances``: every game's live chances against issue
  20's target (docs/performance.md); ``figures``: the chances computed once per table
  position by several trackers (docs/scaling.md);
- ``scan`` — ``python -m aids.bench.scan``: a result slip's photo read, against decoding its
  QR code alone (from the repository: it uses the tests' generated photos);
- ``procs``, ``viewers`` and ``referee`` — the processes and their ``/proc`` readings, the
  simulated phones and the referee's writes that ``crowd`` and ``figures`` drive.
"""
