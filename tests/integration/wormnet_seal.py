"""The seal of wormnet's checkpoints and routing tables (include/wormnet/h5/file_seal.hpp),
for tests that change such a file with h5py on purpose and want wormnet's own checks of its
content to see it, rather than the seal refusing the file first. Mirrors file_seal.cpp and
src/io/row_digest.hpp; a file sealed here is one wormnet would have written.

    import wormnet_seal; wormnet_seal.reseal(path)
"""

MASK = (1 << 64) - 1
SEAL_BYTES = 512
CHUNK = 1 << 20


def mix64(x):
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def digest_bytes(key, data):
    h = mix64((key + 0x9E3779B97F4A7C15) & MASK)
    n = len(data)
    whole = n - n % 8
    for i in range(0, whole, 8):
        h = mix64(h ^ int.from_bytes(data[i:i + 8], "little"))
    if whole < n:
        h = mix64(h ^ int.from_bytes(data[whole:] + bytes(8 - (n - whole)), "little"))
    return mix64(h ^ n)


def reseal(path):
    """Writes the seal of the file at `path` (created sealed by wormnet) for its content now."""
    with open(path, "r+b") as f:
        f.seek(SEAL_BYTES)
        digest, size, chunk = 0, SEAL_BYTES, 0
        while True:
            data = f.read(CHUNK)
            if data:
                digest = mix64(digest ^ digest_bytes(chunk, data))
                chunk += 1
                size += len(data)
            if len(data) < CHUNK:
                break
        text = b"wormnet seal 1 %016x %d\n" % (digest, size)
        f.seek(0)
        f.write(text + bytes(SEAL_BYTES - len(text)))


def redigest(dataset):
    """Writes a checkpoint dataset's `digest` attribute for its content now (the sum mod 2^64
    over its rows of digest_bytes(row index, row bytes): include/wormnet/h5/row_digest.hpp),
    so that a dataset changed on purpose reaches the loader's checks of its values. For
    datasets whose digest folds nothing else in (router rows and list columns)."""
    import numpy as np
    data = np.ascontiguousarray(dataset[()])
    rows = data.reshape(data.shape[0], -1) if data.ndim > 0 else data.reshape(1, 1)
    total = 0
    for i in range(rows.shape[0]):
        total = (total + digest_bytes(i, rows[i].tobytes())) & MASK
    dataset.attrs["digest"] = np.uint64(total)
