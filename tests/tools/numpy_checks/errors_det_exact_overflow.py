assert 4000000000 * 4000000000 > 2**63 - 1   # numpy has no exact integer det; the product leaves i64
