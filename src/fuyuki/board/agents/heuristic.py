"""placeholder"""
class HeuristicBot:
    def __init__(self, seed=0, seat=0):
        from fuyuki.board.agents.random_bot import RandomBot
        self.r = RandomBot(seed, seat)
    def choose(self, view, decision):
        return self.r.choose(view, decision)
