"""Training scripts (``python -m train.sb3_ppo``, ``python -m train.evaluate``)."""
