"""Private: the compiled inner loops (numba, optional) and their numpy twins, which give the same bits.
``engine`` picks numba or numpy and compiles; ``perceptron``, ``checks``, ``experts``, ``winnow``, ``margin_scan`` hold the loops."""
