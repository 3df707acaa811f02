"""Many games summarised (`tgpl analyze`): figures.py plays and measures, report.py plots, command.py runs it.

Beside tgpl/pipeline.py: it composes the runtime (games, agents) and knows nothing of the lowering.
"""
