import TimelineKit

print("timeline \(timelineKitVersion): the command-line tool arrives with the next issue.")
