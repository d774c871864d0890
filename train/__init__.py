"""Training scripts (``python -m train.ppo``, ``python -m train.evaluate``)."""
