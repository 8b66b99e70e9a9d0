import TimelineKit

print("timeline: the command-line tool arrives with the next issue; TimelineKit \(TimelineKit.version) is ready.")
