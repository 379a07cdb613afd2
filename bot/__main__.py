from bot.app import main

raise SystemExit(main())
