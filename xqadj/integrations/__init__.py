"""The integrations: xqadj plugged into other programs and files (integrations/README.md).

Layer: integrations.  Its modules may import the core, the rules registry, the referee, the
protocol, the pictures (:mod:`xqadj.svg`) and one another without a circle; never
:mod:`xqadj.cli`, which sits above them.

* :mod:`~xqadj.integrations.engine` — driving UCI/UCCI engines;
* :mod:`~xqadj.integrations.match` (with :mod:`~xqadj.integrations.tournament`,
  :mod:`~xqadj.integrations.openings`, :mod:`~xqadj.integrations.timecontrol`,
  :mod:`~xqadj.integrations.stats`, :mod:`~xqadj.integrations.adjudication`) — engine matches;
* :mod:`~xqadj.integrations.proxy` — the proxy between a GUI and an engine;
* :mod:`~xqadj.integrations.replay` — rulings for game files;
* :mod:`~xqadj.integrations.gamefiles` — reading game files, whole or in chunks;
* :mod:`~xqadj.integrations.cluster` — ruling chunks on a Dask cluster;
* :mod:`~xqadj.integrations.report` — the HTML report of rulings;
* :mod:`~xqadj.integrations.show` — ``xqadj show``, pictures on the command line;
* :mod:`~xqadj.integrations.arguments` — the arguments the commands share.
"""
