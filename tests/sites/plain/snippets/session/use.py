print("the answer is", answer)
