"""The execution layer: model-written code and slow graders in killable processes with limits."""
