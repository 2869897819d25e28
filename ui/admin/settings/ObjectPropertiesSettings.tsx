/** Admin settings section (application.md §2 "Settings tab"). */
export function ObjectPropertiesSettings() {
  return <section className="panel p-6" />;
}
