print("aubade")
