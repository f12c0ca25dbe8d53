# Sourced by the radio benchmarks: Debian's icecast2 as the reference, with room for the listeners
# (it drops to nobody when run as root).
#   start_icecast WORK PORT LISTENERS PASSWORD   (sets icecast_pid; returns once it answers)
start_icecast() {
  local work=$1 port=$2 listeners=$3 password=$4
  mkdir -p "$work/icecast/log"
  chmod 777 "$work/icecast/log"
  cat > "$work/icecast/icecast.xml" <<XML
<icecast>
  <limits><clients>$((listeners + 100))</clients><sources>2</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>65536</burst-size></limits>
  <authentication><source-password>$password</source-password><admin-user>admin</admin-user>
    <admin-password>$password</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>$work/icecast/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>
</icecast>
XML
  icecast2 -c "$work/icecast/icecast.xml" >/dev/null 2>&1 &
  icecast_pid=$!
  until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.05; done
}
