from ladderbench.cli import main

main()
