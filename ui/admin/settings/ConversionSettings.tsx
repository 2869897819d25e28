/** Admin settings section (application.md §2 "Settings tab"). */
export function ConversionSettings() {
  return <section className="panel p-6" />;
}
