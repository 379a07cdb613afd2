"""`python -m bot` starts the bot; `python -m bot ratings --rebuild` recomputes every rating from the results."""

import sys

if sys.argv[1:2] == ["demo"]:  # try it in the browser, in a simulated Discord
    from bot.demo import main as demo_main

    raise SystemExit(demo_main(sys.argv[2:]))

if sys.argv[1:2] == ["ratings"]:
    from bot.rebuild_ratings import main as ratings_main

    raise SystemExit(ratings_main(sys.argv[2:]))

from bot.app import main

raise SystemExit(main())
