"""The Train page's views: the form's labels and recipes, corpus files, the model as an address, what a model learned,
training progress, and its own state module (``viz.train.state``)."""
