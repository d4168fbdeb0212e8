"""The command-line tools of the package beside heatmap and report (cli.py): each module's
main() is an entry point of an installed package (wormnet-plot-sweep, wormnet-fig5, ...), a
`python3 -m wormnet_analysis NAME` tool, and the script analysis/NAME.py of the checkout."""
