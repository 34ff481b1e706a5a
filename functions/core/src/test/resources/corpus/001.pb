

only-an-id